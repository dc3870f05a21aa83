// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_SCRIPT_ID, parseRuntimeConfig, readRuntimeConfig } from './runtimeConfig';

afterEach(() => {
  document.body.innerHTML = '';
  delete window.__CLIPNEST_CONFIG__;
});

describe('runtime config', () => {
  it('reads the JSON config script first', () => {
    document.body.innerHTML = `<script type="application/json" id="${CONFIG_SCRIPT_ID}">{"apiBaseUrl":"https://api.example"}</script>`;
    window.__CLIPNEST_CONFIG__ = { apiBaseUrl: 'https://other.example' };
    expect(readRuntimeConfig(window)).toEqual({ apiBaseUrl: 'https://api.example' });
  });

  it('falls back to a plain-object global', () => {
    window.__CLIPNEST_CONFIG__ = { apiBaseUrl: 'https://api.example' };
    expect(readRuntimeConfig(window)).toEqual({ apiBaseUrl: 'https://api.example' });
  });

  it('ignores a global clobbered by DOM elements', () => {
    // In a browser, named access makes window.__CLIPNEST_CONFIG__ the element (or an HTMLCollection
    // of all elements with that id); jsdom has no named access, so the test puts them there.
    document.body.innerHTML =
      '<div id="__CLIPNEST_CONFIG__"></div><a id="__CLIPNEST_CONFIG__" name="apiBaseUrl" href="https://evil.example">x</a>';
    window.__CLIPNEST_CONFIG__ = document.querySelector('a');
    expect(readRuntimeConfig(window)).toEqual({});
    window.__CLIPNEST_CONFIG__ = document.getElementsByTagName('*');
    expect(readRuntimeConfig(window)).toEqual({});
    window.__CLIPNEST_CONFIG__ = Object.assign(Object.create(document.body) as object, {
      apiBaseUrl: 'https://evil.example',
    });
    expect(readRuntimeConfig(window)).toEqual({});
  });

  it('ignores a config script of another type or with bad JSON', () => {
    document.body.innerHTML = `<div id="${CONFIG_SCRIPT_ID}">{"apiBaseUrl":"https://evil.example"}</div>`;
    expect(readRuntimeConfig(window)).toEqual({});
    document.body.innerHTML = `<script type="application/json" id="${CONFIG_SCRIPT_ID}">{not json</script>`;
    expect(readRuntimeConfig(window)).toEqual({});
  });

  it('keeps only well-formed fields', () => {
    expect(parseRuntimeConfig({ apiBaseUrl: 'javascript:alert(1)' })).toEqual({});
    expect(parseRuntimeConfig({ apiBaseUrl: 42, other: 1 })).toEqual({});
    expect(parseRuntimeConfig('https://api.example')).toBeNull();
    expect(parseRuntimeConfig([])).toBeNull();
  });

  it('is frozen once read', () => {
    window.__CLIPNEST_CONFIG__ = { apiBaseUrl: 'https://api.example' };
    const config = readRuntimeConfig(window);
    expect(Object.isFrozen(config)).toBe(true);
  });
});
