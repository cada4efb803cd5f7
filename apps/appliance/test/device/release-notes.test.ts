import { describe, expect, it } from 'vitest';
import { releaseNotes } from '../../src/domain/device/ota.js';

const notes = (...tags: string[]) => Object.fromEntries(tags.map((t) => [t, { html_note: `<p>${t}</p>` }]));

describe('the release notes an update screen shows, for the device language', () => {
  it('the device language itself, whatever the case of the cloud tag', () => {
    expect(releaseNotes(notes('en', 'de', 'ja'), 'de')).toBe('<p>de</p>');
    expect(releaseNotes(notes('en', 'zh-cn'), 'zh-CN')).toBe('<p>zh-cn</p>');
  });

  it('else the nearest language the cloud wrote: a region or a script apart', () => {
    expect(releaseNotes(notes('en', 'pt-BR'), 'pt')).toBe('<p>pt-BR</p>');
    expect(releaseNotes(notes('en', 'zh'), 'zh-CN')).toBe('<p>zh</p>');
    expect(releaseNotes(notes('en', 'zh-Hans'), 'zh-CN')).toBe('<p>zh-Hans</p>');
    // Traditional Chinese is not what a Simplified Chinese reader gets: English is.
    expect(releaseNotes(notes('en', 'zh-TW'), 'zh-CN')).toBe('<p>en</p>');
  });

  it('else English (or English of any region), else whatever the cloud sent, else nothing', () => {
    expect(releaseNotes(notes('fr', 'en'), 'pl')).toBe('<p>en</p>');
    expect(releaseNotes(notes('fr', 'en-US'), 'pl')).toBe('<p>en-US</p>');
    expect(releaseNotes(notes('fr'), 'pl')).toBe('<p>fr</p>');
    expect(releaseNotes({}, 'pl')).toBe('');
  });

  it('a cloud tag that is no language tag is never a match, and does not throw', () => {
    expect(releaseNotes(notes('<b>', 'en'), 'de')).toBe('<p>en</p>');
    expect(releaseNotes(notes('x'.repeat(300)), 'de')).toBe(`<p>${'x'.repeat(300)}</p>`);
  });
});
