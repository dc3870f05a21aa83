/** Subtitle files beside a video: which belong to it, their language, and SubRip → WebVTT. */

export interface SubtitleMatch {
  /** The subtitle file's name. */
  name: string;
  /** The language part of the name (`movie.zh-CN.srt` → `zh-CN`), or '' when it has none. */
  language: string;
  format: 'srt' | 'vtt';
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The language part of a subtitle's name for a video: `name.srt` → '', `name.en.vtt` → 'en',
 * `name.zh-Hans.srt` → 'zh-Hans'. `null` when the file is not a subtitle of that video.
 */
export function subtitleLanguage(videoName: string, subtitleName: string): string | null {
  const base = stem(videoName).toLowerCase();
  const sub = stem(subtitleName);
  if (sub.toLowerCase() === base) return '';
  if (!sub.toLowerCase().startsWith(`${base}.`)) return null;
  const rest = sub.slice(base.length + 1);
  return /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(rest) ? rest.replace(/_/g, '-') : null;
}

/** The subtitles among a folder's file names that belong to `videoName`, by language. */
export function subtitlesFor(
  videoName: string,
  names: readonly string[],
  extensions: readonly string[],
): SubtitleMatch[] {
  const matches: SubtitleMatch[] = [];
  for (const name of names) {
    const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    if (name === videoName || !extensions.includes(ext)) continue;
    if (ext !== 'srt' && ext !== 'vtt') continue;
    const language = subtitleLanguage(videoName, name);
    if (language !== null) matches.push({ name, language, format: ext });
  }
  return matches.sort((a, b) => a.language.localeCompare(b.language) || a.name.localeCompare(b.name));
}

/** A track's label: the language's name in the reader's language when the browser knows it. */
export function subtitleLabel(language: string, uiLanguage: string, fallback: string): string {
  if (!language) return fallback;
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(language);
    return name && name !== language ? name : language;
  } catch {
    return language;
  }
}

const SRT_TIME = /(\d{1,2}):(\d{2}):(\d{2})[,.](\d{1,3})/g;

/**
 * SubRip text as WebVTT: a header, `,` → `.` in the cue times (hours kept, milliseconds padded), numbering
 * kept as cue ids. A file that already starts with WEBVTT is returned as it is.
 */
export function srtToVtt(srt: string): string {
  const text = srt.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (/^WEBVTT(?:[ \t\n]|$)/.test(text)) return text;
  const blocks = text
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean);
  const cues = blocks.flatMap((block) => {
    const lines = block.split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) return [];
    const time = lines[timing]!.replace(
      SRT_TIME,
      (_, h: string, m: string, s: string, ms: string) => `${h.padStart(2, '0')}:${m}:${s}.${ms.padEnd(3, '0')}`,
    );
    // A cue's text may not hold an empty line or "-->" in WebVTT.
    const body = lines.slice(timing + 1).map((line) => line.replace(/-->/g, '→'));
    return [[...lines.slice(0, timing), time, ...body].join('\n')];
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
