import type { Page } from 'playwright-core';

/** Runs in the page; kept as text because the project compiles without the DOM types. */
const SCRIPT = String.raw`(rootSelector) => {
  const rootEl = document.querySelector(rootSelector);
  if (!rootEl) return ['no element ' + rootSelector];
  const box = rootEl.getBoundingClientRect();
  const viewport = document.documentElement.clientWidth;
  const problems = [];
  const px = (n) => Math.round(n) + 'px';
  const name = (el) => {
    const cls = typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    const text = (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + cls + ' "' + text + '"';
  };
  if (document.documentElement.scrollWidth > viewport)
    problems.push('the page scrolls sideways: ' + px(document.documentElement.scrollWidth) + ' > ' + px(viewport));
  for (const el of [rootEl, ...rootEl.querySelectorAll('*')]) {
    // The inside of an SVG (the QR code, icons) is drawing, not text.
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    // Not drawn: the inside of a closed <details> (content-visibility: hidden), among others.
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      problems.push(name(el) + ': content ' + px(el.scrollWidth) + ' is wider than its box ' + px(el.clientWidth));
    if (el !== rootEl && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
      problems.push(name(el) + ': spans ' + px(r.left) + '-' + px(r.right) + ', outside ' + rootSelector +
        ' (' + px(box.left) + '-' + px(box.right) + ')');
    if (r.left < -0.5 || r.right > viewport + 0.5)
      problems.push(name(el) + ': spans ' + px(r.left) + '-' + px(r.right) + ', outside the viewport (' + px(viewport) + ')');
  }
  return problems;
}`;

/**
 * Text that does not fit, found through element geometry in the browser: an element whose content
 * is wider than its box (`scrollWidth` > `clientWidth`), an element whose box reaches outside
 * `root`'s box or outside the viewport, and a page that scrolls sideways. Returns one line per
 * problem, naming the element and its text; empty when everything fits.
 */
export function layoutProblems(page: Page, root: string): Promise<string[]> {
  return page.evaluate(`(${SCRIPT})(${JSON.stringify(root)})`) as Promise<string[]>;
}
