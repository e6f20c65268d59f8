export { BACKUP_FORMAT_VERSION, BackupError, type BackupHeader } from './backup-format.ts';
export { type RestoreSummary, restoreBackup } from './restore-backup.ts';
export { type BackupSummary, type TableProgress, writeBackup } from './write-backup.ts';
