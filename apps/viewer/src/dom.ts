/** The page's element of id `id` (index.html holds every id the panels name). */
export const el = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function cell(content: string | Node, tag: 'td' | 'th' = 'td'): HTMLTableCellElement {
  const c = document.createElement(tag);
  c.append(content);
  return c;
}

export function row(values: string[], tag: 'td' | 'th' = 'td'): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const v of values) tr.appendChild(cell(v, tag));
  return tr;
}

export function button(text: string, testid: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.dataset['testid'] = testid;
  b.addEventListener('click', onClick);
  return b;
}

/** An option whose text a narrow picker may cut (a long channel name): its whole text is its tooltip. */
export function titled(option: HTMLOptionElement): HTMLOptionElement {
  option.title = option.text;
  return option;
}
