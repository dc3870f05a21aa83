import { describe, expect, it } from 'vitest';
import { srtToVtt, subtitleLanguage, subtitlesFor } from './subtitles';

describe('srtToVtt', () => {
  it('writes the header and turns the comma of the times into a dot', () => {
    const srt =
      '1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n你好\r\nworld\r\n';
    expect(srtToVtt(srt)).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHello\n\n2\n00:00:03.000 --> 00:00:04.000\n你好\nworld\n',
    );
  });
  it('drops the byte order mark, pads short times and skips blocks without a timing line', () => {
    expect(srtToVtt('\uFEFF1\n0:00:01,5 --> 0:00:02,25\nHi\n\nnot a cue\n')).toBe(
      'WEBVTT\n\n1\n00:00:01.500 --> 00:00:02.250\nHi\n',
    );
  });
  it('keeps an arrow in the text from ending the cue', () => {
    expect(srtToVtt('1\n00:00:01,000 --> 00:00:02,000\na --> b\n')).toContain('\na → b\n');
  });
  it('leaves WebVTT as it is', () => {
    const vtt = 'WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n';
    expect(srtToVtt(vtt)).toBe(vtt);
  });
  it('turns nonsense into an empty track', () => {
    expect(srtToVtt('just some text')).toBe('WEBVTT\n\n\n');
  });
});

describe('subtitleLanguage', () => {
  it('reads the language part of the name', () => {
    expect(subtitleLanguage('movie.mp4', 'movie.srt')).toBe('');
    expect(subtitleLanguage('movie.mp4', 'movie.en.vtt')).toBe('en');
    expect(subtitleLanguage('movie.mp4', 'movie.zh.srt')).toBe('zh');
    expect(subtitleLanguage('Movie.MP4', 'movie.zh_CN.srt')).toBe('zh-CN');
    expect(subtitleLanguage('my.movie.webm', 'my.movie.pt-BR.vtt')).toBe('pt-BR');
  });
  it('refuses names of another video or parts that are no language', () => {
    expect(subtitleLanguage('movie.mp4', 'other.srt')).toBeNull();
    expect(subtitleLanguage('movie.mp4', 'movie2.srt')).toBeNull();
    expect(subtitleLanguage('movie.mp4', 'movie.director commentary.srt')).toBeNull();
  });
});

describe('subtitlesFor', () => {
  it('finds the subtitles of a video among its siblings, by language', () => {
    const names = ['clip.webm', 'clip.zh.srt', 'clip.en.vtt', 'clip.srt', 'other.srt', 'clip.txt'];
    expect(subtitlesFor('clip.webm', names, ['srt', 'vtt'])).toEqual([
      { name: 'clip.srt', language: '', format: 'srt' },
      { name: 'clip.en.vtt', language: 'en', format: 'vtt' },
      { name: 'clip.zh.srt', language: 'zh', format: 'srt' },
    ]);
    expect(subtitlesFor('clip.webm', names, ['vtt'])).toEqual([{ name: 'clip.en.vtt', language: 'en', format: 'vtt' }]);
  });
});
