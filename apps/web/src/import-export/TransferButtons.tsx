/** Which of the links page's file panels is open. */
export type Transfer = 'import' | 'export';

/** The links page's Import and Export buttons: each opens its panel, and closes it again. */
export function TransferButtons({ open, onOpen }: { open: Transfer | undefined; onOpen: (next: Transfer | undefined) => void }) {
  return (
    <>
      {(['import', 'export'] as const).map((which) => (
        <button
          key={which}
          type="button"
          className="button"
          aria-expanded={open === which}
          onClick={() => onOpen(open === which ? undefined : which)}
        >
          {which === 'import' ? 'Import' : 'Export'}
        </button>
      ))}
    </>
  );
}
