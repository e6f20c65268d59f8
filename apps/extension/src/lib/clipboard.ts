/**
 * Copies text from an extension page. The asynchronous Clipboard API needs the page to have
 * focus; the older `execCommand('copy')` on a selected text area works where it does not (an
 * offscreen document, a popup that lost focus).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}
