import { describeUserAgent } from './userAgent.js';

/** How long an unknown user agent may be when it is shown as the app's name. */
const RAW_MAX = 48;

function osIn(ua: string): string | null {
  return describeUserAgent(ua).os;
}

/**
 * The app a Login Flow v2 request comes from, as the approval page and the app password's name show it:
 * "Nextcloud (desktop 3.7.3, Linux)", "Nextcloud (Android 3.26.0)", "ownCloud (desktop 5.2.0, Windows)". Another
 * client gets its browser and system ("Firefox 128, Linux") or its user agent cut short; none: "unknown app".
 */
export function nextcloudClientName(ua: string | null | undefined): string {
  const agent = (ua ?? '').trim();
  // The desktop client (its engine is still called mirall): "Mozilla/5.0 (Linux) mirall/3.7.3 (Nextcloud, debian…)".
  const desktop = /mirall\/([\d.]+)[^(]*\((Nextcloud|ownCloud)\b/i.exec(agent);
  if (desktop) {
    const os = osIn(agent);
    const brand = desktop[2]!.toLowerCase() === 'owncloud' ? 'ownCloud' : 'Nextcloud';
    return `${brand} (desktop ${desktop[1]}${os ? `, ${os}` : ''})`;
  }
  const mobile = /(Nextcloud|ownCloud)[-_ ]?(android|iOS)\/([\d.]+)/i.exec(agent);
  if (mobile) {
    const brand = mobile[1]!.toLowerCase() === 'owncloud' ? 'ownCloud' : 'Nextcloud';
    const platform = mobile[2]!.toLowerCase() === 'ios' ? 'iOS' : 'Android';
    return `${brand} (${platform} ${mobile[3]})`;
  }
  const { browser, os } = describeUserAgent(agent);
  if (browser) return os ? `${browser}, ${os}` : browser;
  // eslint-disable-next-line no-control-regex -- control characters never reach a name
  const plain = agent.replace(/[\u0000-\u001f\u007f]/g, '');
  if (!plain) return 'unknown app';
  return plain.length > RAW_MAX ? `${plain.slice(0, RAW_MAX - 1)}…` : plain;
}
