// The IPv4 addresses an IPv6 address carries inside it, for the SSRF guard: a connection to one of
// these forms can end up at the embedded IPv4 host (dual-stack sockets, NAT64 gateways, 6to4 and
// Teredo relays), so the guard checks the embedded address with the IPv4 rules.
import ipaddr from 'ipaddr.js';

export interface EmbeddedIpv4 {
  /** Which IPv6 form carries it. */
  form: string;
  /** Every IPv4 address the form may stand for (local-use NAT64 prefixes have several layouts). */
  addresses: ipaddr.IPv4[];
}

const v4 = (bytes: number[]): ipaddr.IPv4 => new ipaddr.IPv4(bytes);

/** The 16 bytes of an IPv6 address. */
function bytesOf(ip: ipaddr.IPv6): number[] {
  return ip.toByteArray();
}

const zero = (bytes: number[], from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);

/**
 * RFC 6052 layouts: the IPv4 address sits in these byte positions for a prefix of the given
 * length (byte 8 — bits 64..71, "u" — is always skipped).
 */
const RFC6052_LAYOUTS: Record<48 | 56 | 64 | 96, number[]> = {
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
};

/** The embedded IPv4 address(es) of `ip`, or null when it is not one of the embedding forms. */
export function embeddedIpv4(ip: ipaddr.IPv6): EmbeddedIpv4 | null {
  const b = bytesOf(ip);
  const last32 = b.slice(12, 16);
  // ::ffff:0:0/96, IPv4-mapped.
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return { form: 'IPv4-mapped', addresses: [v4(last32)] };
  // ::ffff:0:0:0/96, IPv4-translated (SIIT).
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) {
    return { form: 'IPv4-translated', addresses: [v4(last32)] };
  }
  // ::/96, IPv4-compatible (deprecated, but a dual-stack socket may still reach the IPv4 host).
  // :: and ::1 keep their own meaning (unspecified, loopback) and are left to the IPv6 rules.
  if (zero(b, 0, 12) && !(zero(b, 12, 15) && (b[15] === 0 || b[15] === 1))) {
    return { form: 'IPv4-compatible', addresses: [v4(last32)] };
  }
  // 64:ff9b::/96, the well-known NAT64 prefix.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) {
    return { form: 'NAT64', addresses: [v4(last32)] };
  }
  // 64:ff9b:1::/48, local-use NAT64: the operator picks the prefix length (48, 56, 64 or 96), so
  // every layout it could use is checked.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0x00 && b[5] === 0x01) {
    return {
      form: 'NAT64 (local-use)',
      addresses: Object.values(RFC6052_LAYOUTS).map((at) => v4(at.map((i) => b[i] as number))),
    };
  }
  // 2002::/16, 6to4: the IPv4 address is bits 16..47.
  if (b[0] === 0x20 && b[1] === 0x02) return { form: '6to4', addresses: [v4(b.slice(2, 6))] };
  // 2001::/32, Teredo: the client's address is the last 32 bits inverted.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) {
    return { form: 'Teredo', addresses: [v4(last32.map((x) => x ^ 0xff))] };
  }
  return null;
}
