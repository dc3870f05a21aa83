/**
 * The script and styles of the reference page (served from our origin, never inline: the page's CSP has no
 * 'unsafe-inline'). The script reads the web app's session (localStorage `admin_token`, else `api_key`, as
 * web/src/lib/auth.ts keeps it) so "Try it out" calls as the visitor; a key typed into Authorize works too, with
 * or without its `ApiKey ` prefix. Theme and language follow the app's (`themeMode`, `language`).
 */
export const API_DOCS_SCRIPT = `(function () {
  'use strict';
  function read(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  var root = document.documentElement;
  var mode = read('themeMode');
  var dark = mode === 'dark' || (mode !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  var lang = read('language') || (/^zh/i.test(navigator.language || '') ? 'zh-CN' : 'en');
  var zh = lang === 'zh-CN';
  root.lang = zh ? 'zh-CN' : 'en';
  var text = zh
    ? {
        title: 'API 参考',
        admin: '已使用管理员登录：“Try it out” 以管理员身份调用',
        key: '已使用 API 密钥登录：“Try it out” 以该密钥调用',
        none: '未登录：点击 Authorize 输入 API 密钥',
      }
    : {
        title: 'API reference',
        admin: 'Signed in as the admin: “Try it out” calls with your session',
        key: 'Signed in with an API key: “Try it out” calls with that key',
        none: 'Not signed in: use Authorize to enter an API key',
      };
  var token = read('admin_token');
  var apiKey = token ? null : read('api_key');
  var titleEl = document.querySelector('[data-text="title"]');
  if (titleEl) titleEl.textContent = text.title;
  var note = document.getElementById('cn-auth');
  if (note) note.textContent = token ? text.admin : apiKey ? text.key : text.none;

  window.ui = window.SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    persistAuthorization: false,
    validatorUrl: null,
    withCredentials: false,
    requestInterceptor: function (request) {
      var headers = request.headers || {};
      var value = headers.Authorization || headers.authorization;
      if (value && !/^(Bearer|ApiKey)\\s/i.test(value)) {
        delete headers.authorization;
        headers.Authorization = 'ApiKey ' + value;
      }
      return request;
    },
    onComplete: function () {
      if (token) window.ui.preauthorizeApiKey('bearerAuth', token);
      else if (apiKey) window.ui.preauthorizeApiKey('ApiKey', 'ApiKey ' + apiKey);
    },
  });
})();
`;

/** The bar above Swagger UI, and a dark mode: Swagger UI's light colours inverted, code blocks kept dark. */
export const API_DOCS_STYLES = `html { background: #fff; }
body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; }
.cn-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; padding: 0.75rem 1.25rem;
  border-bottom: 1px solid #e5e7eb; background: #fff; color: #111827; }
.cn-home { font-weight: 600; color: #0f766e; text-decoration: none; }
.cn-home:hover, .cn-home:focus-visible { text-decoration: underline; }
.cn-title { font-weight: 600; }
.cn-auth { font-size: 0.875rem; color: #4b5563; margin-left: auto; }
.swagger-ui .scheme-container { padding-left: 0; padding-right: 0; }
.swagger-ui .wrapper { padding: 0 1.25rem; }
html.dark, html.dark body { background: #1f1f1f; }
html.dark .cn-bar { background: #0b1215; color: #e5e7eb; border-bottom-color: #1f2937; }
html.dark .cn-home { color: #5eead4; }
html.dark .cn-auth { color: #9ca3af; }
html.dark .swagger-ui { filter: invert(88%) hue-rotate(180deg); }
html.dark .swagger-ui .highlight-code, html.dark .swagger-ui .microlight, html.dark .swagger-ui img {
  filter: invert(100%) hue-rotate(180deg); }
@media (max-width: 600px) {
  .cn-auth { margin-left: 0; flex-basis: 100%; }
  .swagger-ui .wrapper { padding: 0 0.75rem; }
}
`;
