import { describe, expect, it } from 'vitest';
import { type Command, StateBus } from '../../src/core/bus.js';
import { createScreens, renderTerminal, type ScreenView } from '../../src/domain/screens/index.js';
import { displayWidth, padEnd, wrapText } from '../../src/domain/screens/text.js';
import { LOCALES } from '../../src/i18n/index.js';
import { screenTour } from './tour.js';

const TAGS = LOCALES.map((l) => l.tag);
/** A row of the half-block QR code (the progress bar is in brackets). */
const QR_LINE = /^│\s+[█▀▄][█▀▄ ]{8,}[█▀▄]\s+│$/;

/** The texts a screen must show in full, whatever the width. */
function shownTexts(v: ScreenView): string[] {
  const out = [v.title, ...v.buttons.map((b) => b.label)];
  switch (v.screen) {
    case 'wifi':
      out.push(...v.rows.flatMap((r) => [r.label, r.value]));
      if (v.notice) out.push(v.notice);
      if (v.confirm) out.push(v.confirm.question, v.confirm.detail);
      break;
    case 'setup':
      out.push(...v.rows.flatMap((r) => [r.label, r.value]), v.progress);
      if (v.error) out.push(v.error);
      if (v.countdownText) out.push(v.countdownText);
      break;
    case 'update':
      out.push(v.headline, v.status);
      if (v.error) out.push(v.error);
      if (v.progress && v.phase === 'downloading') out.push(v.progress.bytes);
      break;
    case 'verify':
      out.push(v.prompt, v.detail);
      if (v.phase === 'entry') out.push(v.entryLabel);
      if (v.error) out.push(v.error);
      if (v.countdownText) out.push(v.countdownText);
      break;
    default:
  }
  return out;
}

/** What the box shows, with the frame, the padding and the line breaks taken out. */
const squeeze = (s: string) => s.replace(/[│┌┐└┘─\s]/gu, '');

async function tour(
  lang: string,
  width?: number,
): Promise<Array<{ name: string; view: ScreenView; text: string }>> {
  const t = screenTour(lang);
  const out: Array<{ name: string; view: ScreenView; text: string }> = [];
  await t.run((name, view) => {
    out.push({ name, view, text: renderTerminal(view, width === undefined ? {} : { width }) });
  });
  t.close();
  return out;
}

describe('the screens in every language', () => {
  it.each(TAGS)('%s: every screen and state, as the terminal draws it (snapshot)', async (lang) => {
    const screens = await tour(lang);
    expect(screens.length).toBe(26);
    const doc = screens
      .map(({ name, view, text }) => {
        expect(view.lang, name).toBe(lang);
        // The QR code is the same in every language: one line stands for it in the snapshot.
        const lines = text.split('\n');
        const inner = displayWidth(lines[0]!) - 4;
        const kept = lines
          .filter((l, i) => !QR_LINE.test(l) || !QR_LINE.test(lines[i - 1] ?? ''))
          .map((l) => (QR_LINE.test(l) ? `│ ${padEnd('(QR code)', inner)} │` : l));
        return `## ${name}\n${kept.join('\n')}`;
      })
      .join('\n\n');
    await expect(`${doc}\n`).toMatchFileSnapshot(`./__snapshots__/terminal.${lang}.txt`);
  });

  it.each(TAGS)('%s: at 44 and at 24 columns every line fits the box and no text is lost', async (lang) => {
    for (const width of [44, 24]) {
      for (const { name, view, text } of await tour(lang, width)) {
        const lines = text.split('\n');
        const boxWidth =
          Math.max(width, ...lines.filter((l) => QR_LINE.test(l)).map((l) => displayWidth(l) - 4)) + 4;
        for (const line of lines)
          expect(displayWidth(line), `${lang} ${width} ${name}: ${line}`).toBe(boxWidth);
        const shown = squeeze(text);
        for (const part of shownTexts(view))
          expect(shown, `${lang} ${width} ${name}`).toContain(squeeze(part));
      }
    }
  });

  it('a change of the device language shows at once, on the next view and to every subscriber', () => {
    const bus = new StateBus();
    let language = 'en';
    const screens = createScreens({ bus, language: () => language });
    const seen: ScreenView[] = [];
    screens.subscribe((v) => seen.push(v));
    expect(screens.view()).toMatchObject({ lang: 'en', title: 'Menu' });
    // The portal saves the settings with a new language, then tells the bus.
    language = 'ja';
    bus.send({ type: 'SettingsSaved' } satisfies Command);
    expect(seen.at(-1)).toMatchObject({ lang: 'ja', title: 'メニュー', buttons: [{ label: 'Wi-Fi' }] });
    language = 'de';
    screens.press('open-wifi');
    expect(seen.at(-1)).toMatchObject({ lang: 'de', title: 'WLAN', rows: [{ label: 'Netzwerk' }, {}, {}] });
    // A language the device has no texts for falls back to English.
    language = 'sv';
    screens.press('back');
    expect(seen.at(-1)).toMatchObject({ lang: 'en', title: 'Menu' });
    // Any other change of the setting (the settings loaded at boot): refresh() redraws at once.
    language = 'zh-CN';
    const before = seen.length;
    screens.refresh();
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)).toMatchObject({ lang: 'zh-CN', title: '菜单' });
    screens.close();
  });
});

describe('wrapText', () => {
  it('breaks at spaces and keeps every line within the width', () => {
    expect(wrapText('The device could not join the network in time.', 16)).toEqual([
      'The device could',
      'not join the',
      'network in time.',
    ]);
  });

  it('breaks a German compound after its hyphen, and cuts a word longer than a line', () => {
    expect(wrapText('Das WLAN-Einrichtungsnetzwerk', 16)).toEqual(['Das WLAN-', 'Einrichtungsnetz', 'werk']);
    expect(wrapText('Softwareaktualisierungsprüfung', 12)).toEqual([
      'Softwareaktu',
      'alisierungsp',
      'rüfung',
    ]);
  });

  it('breaks Japanese between characters, never before closing punctuation or a small kana', () => {
    const lines = wrapText('ネットワークが見つかりませんでした。名前を確認してください。', 12);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(12);
    expect(lines.join('')).toBe('ネットワークが見つかりませんでした。名前を確認してください。');
    for (const line of lines.slice(1)) expect(line).not.toMatch(/^[。、ッャュョーっゃゅょ」）]/u);
    // Where a line would start with 。 the character before it comes along.
    expect(wrapText('接続できませんでした。', 10)).toEqual(['接続できま', 'せんでし', 'た。']);
  });

  it('counts wide characters as two columns and combining marks as none', () => {
    expect(displayWidth('Wi-Fiを設定')).toBe(11);
    expect(displayWidth('设置 Wi-Fi')).toBe(10);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('Ａ')).toBe(2);
  });
});
