// Which IP addresses an open relay must never connect to. Runtime-neutral (no Node modules):
// the relay checks literal hosts with it, and the Node fetcher checks every resolved address.

/** Why an address is refused, or null when it is a public unicast address. */
export function addressProblem(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return v4Problem(v4);
  const v6 = parseIPv6(ip.replace(/^\[|\]$/g, ''));
  if (v6 === null) return 'not an IP address';
  return v6Problem(v6);
}

/** Dotted-quad IPv4 (the URL parser has already turned hex, octal and integer forms into it). */
export function parseIPv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

const V4_REFUSED: [string, number, string][] = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V4_RANGES = V4_REFUSED.map(([base, bits, why]) => ({
  base: parseIPv4(base)!,
  mask: bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0,
  why,
}));

function v4Problem(n: number): string | null {
  for (const r of V4_RANGES) if ((n & r.mask) >>> 0 === r.base) return `${r.why} address`;
  return null;
}

/** Eight 16-bit groups, or null. Accepts `::`, an embedded dotted quad and a zone id. */
export function parseIPv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!/^[0-9a-f:.]+$/.test(s) || !s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // an embedded dotted quad becomes the last two groups
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  const words = [...head, ...rest].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  if (words.some(Number.isNaN)) return null;
  if (halves.length === 1 ? words.length !== 8 : words.length > 7) return null;
  const zeros: number[] = new Array(8 - words.length).fill(0);
  return [...head.map((_, i) => words[i]), ...zeros, ...words.slice(head.length)];
}

function v6Problem(w: number[]): string | null {
  const allZero = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const embedded = ((w[6] << 16) | w[7]) >>> 0;
  if (allZero(0, 7) && w[7] <= 1) return w[7] === 1 ? 'loopback address' : 'unspecified address';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 rules
  if (allZero(0, 5) && w[5] === 0xffff) return v4Problem(embedded) && `IPv4-mapped ${v4Problem(embedded)}`;
  if (allZero(0, 6)) return 'IPv4-compatible address';
  // ::ffff:0:a.b.c.d (SIIT's IPv4-translated form, RFC 2765/6145): never a public host's address
  if (allZero(0, 4) && w[4] === 0xffff && w[5] === 0) return 'IPv4-translated (SIIT) address';
  if (w[0] === 0x64 && w[1] === 0xff9b && allZero(2, 6)) return v4Problem(embedded) && `NAT64 ${v4Problem(embedded)}`;
  // 64:ff9b:1::/48 (RFC 8215) is for NAT64 inside one network, the IPv4 address at any of six
  // offsets: refused whole (decision 072)
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return 'NAT64 local-use address';
  if (w[0] === 0x2002) {
    const v4 = ((w[1] << 16) | w[2]) >>> 0; // 6to4 carries an IPv4 address
    if (v4Problem(v4)) return `6to4 ${v4Problem(v4)}`;
  }
  if ((w[0] & 0xfe00) === 0xfc00) return 'unique local address';
  if ((w[0] & 0xffc0) === 0xfe80) return 'link-local address';
  if ((w[0] & 0xffc0) === 0xfec0) return 'site-local address';
  if ((w[0] & 0xff00) === 0xff00) return 'multicast address';
  if ((w[0] === 0x2001 && w[1] === 0x0db8) || (w[0] === 0x3fff && w[1] < 0x1000)) return 'documentation address';
  if (w[0] === 0x5f00) return 'SRv6 segment identifier (not a host)';
  if (w[0] === 0x2001 && w[1] < 0x200) return 'IETF special-purpose address (Teredo, ORCHID)';
  if (w[0] === 0x100 && allZero(1, 4)) return 'discard-only address';
  if (w[0] === 0xfd00 && w[1] === 0x0ec2) return 'cloud metadata address';
  return null;
}

/** Host names an open relay refuses without resolving them. */
export function hostNameProblem(host: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return 'a loopback name';
  if (!h.includes('.')) return 'a single-label name (not public)';
  if (/\.(internal|local|localdomain|home\.arpa|lan|intranet|corp)$/.test(h)) return 'an internal name';
  if (h === 'metadata.google.internal' || h.endsWith('.metadata')) return 'a metadata service name';
  return null;
}
