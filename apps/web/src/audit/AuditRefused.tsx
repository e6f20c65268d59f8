/**
 * What a member, a viewer or a key without `audit.read` sees at the audit log's address: the
 * server refused (403), and why, in its words.
 */
export function AuditRefused({ message }: { message: string }) {
  return (
    <div className="empty audit-refused" role="status">
      <h2>Only admins can see the audit log</h2>
      <p className="muted">Ask an admin or the owner of this workspace to look, or to make you an admin.</p>
      <p className="muted" data-testid="audit-refusal">
        {message}
      </p>
    </div>
  );
}
