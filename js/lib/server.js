'use strict';
// Server labels (host:port, [ipv6]:port, host) and the node strings each client hashes.

const { BadLabelError, UnsupportedError } = require('./errors');

/** memcached's default port; several clients leave it out of the node string. */
const DEFAULT_PORT = 11211;

/** An IPv4 literal as four octets (strict dotted decimal, no leading zeros), or null. */
function parseIpv4(s) {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p) || (p.length > 1 && p[0] === '0')) return null;
    const v = Number(p);
    if (v > 255) return null;
    out.push(v);
  }
  return out;
}

/** An IPv6 literal as eight 16-bit groups (an embedded IPv4 tail allowed), or null. */
function parseIpv6(s) {
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part, allowV4) => {
    if (part === '') return [];
    const out = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (allowV4 && i === items.length - 1 && it.includes('.')) {
        const v4 = parseIpv4(it);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(it)) {
        out.push(parseInt(it, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  if (halves.length === 1) {
    const g = groups(s, true);
    return g && g.length === 8 ? g : null;
  }
  const head = groups(halves[0], false);
  const tail = groups(halves[1], true);
  if (!head || !tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
}

/** Java's Inet6Address.getHostAddress(): eight groups, lowercase hex, no compression. */
function javaIpv6(g) {
  return g.map((x) => x.toString(16)).join(':');
}

/**
 * An IPv6 address as Rust's `Ipv6Addr` prints it (RFC 5952): an IPv4-mapped address as
 * `::ffff:a.b.c.d`; else lowercase hex groups, the first longest run of two or more zero
 * groups written `::`.
 */
function compressedIpv6(g) {
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) {
    return `::ffff:${g[6] >>> 8}.${g[6] & 0xff}.${g[7] >>> 8}.${g[7] & 0xff}`;
  }
  let best = 0;
  let bestAt = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > best) {
      best = j - i;
      bestAt = i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (part) => part.map((x) => x.toString(16)).join(':');
  if (best < 2) return hex(g);
  return `${hex(g.slice(0, bestAt))}::${hex(g.slice(bestAt + best))}`;
}

function parsePort(p) {
  if (!/^[0-9]+$/.test(p) || p[0] === '0') throw new BadLabelError(p);
  const v = Number(p);
  if (v > 65535) throw new BadLabelError(p);
  return v;
}

/** [host, port or null] of a label. */
function splitHostPort(label) {
  if (label.startsWith('[')) {
    const close = label.indexOf(']');
    if (close < 0) throw new BadLabelError(label);
    const host = label.substring(1, close);
    if (!parseIpv6(host)) throw new BadLabelError(label);
    const after = label.substring(close + 1);
    if (after === '') return [host, null];
    if (!after.startsWith(':')) throw new BadLabelError(label);
    return [host, parsePort(after.substring(1))];
  }
  const colons = label.split(':').length - 1;
  if (colons === 0) return [label, null];
  if (colons === 1) {
    const i = label.indexOf(':');
    return [label.substring(0, i), parsePort(label.substring(i + 1))];
  }
  if (parseIpv6(label)) return [label, null];
  throw new BadLabelError(label);
}

/**
 * A parsed server: `host:port`, `[ipv6]:port`, `host` or a bare IPv6 address.
 */
class Server {
  /**
   * @param {string} label
   * @param {number} weight
   * @param {string|null|undefined} name
   */
  constructor(label, weight, name) {
    if (typeof label !== 'string' || label === '' || /[\s\p{Cc}\uFEFF]/u.test(label)) {
      throw new BadLabelError(String(label));
    }
    let host;
    let port;
    try {
      [host, port] = splitHostPort(label);
    } catch (err) {
      throw new BadLabelError(label); // the whole label named, whichever part is bad
    }
    if (host === '') throw new BadLabelError(label);
    /** The label as written: what lookups return. */
    this.label = label;
    /** The host part, without IPv6 brackets. */
    this.host = host;
    /** The port (11211 when the label has none). */
    this.port = port === null ? DEFAULT_PORT : port;
    /** Whether the label spelled a port out. */
    this.explicitPort = port !== null;
    /** The weight. */
    this.weight = weight;
    /** An explicit node name, or null. */
    this.name = typeof name === 'string' && name !== '' ? name : null;
    this.v4 = parseIpv4(host);
    this.v6 = this.v4 ? null : parseIpv6(host);
  }

  /** The endpoint this server names, for duplicate checks (IPv6 literals by value). */
  endpoint() {
    if (this.v6) return `[${javaIpv6(this.v6)}]${this.explicitPort ? `:${this.port}` : ''}`;
    return this.label;
  }

  /**
   * The node string the client hashes for this server.
   * @param {string} form the profile's node knob
   * @param {boolean} names whether an explicit name replaces it
   * @param {number} place the server's place in the list given, from 0
   * @returns {string}
   */
  nodeString(form, names, place) {
    const name = names ? this.name : null;
    if (form === 'shard_place') return `SHARD-${place}`;
    if (form === 'name_star_weight') return `${name === null ? this.label : name}*${this.weight}`;
    if (name !== null) return name;
    const hostPort = (h) => `${h}:${this.port}`;
    switch (form) {
      case 'label':
      case 'bare':
        return this.label;
      case 'omit_default_port':
        return this.port === DEFAULT_PORT ? this.host : hostPort(this.host);
      case 'slash_label':
        return `/${hostPort(this.host)}`;
      case 'host_port':
        return hostPort(this.host);
      case 'host_then_port':
        return `${this.host}${this.port}`;
      case 'host_slash_host_port':
        return `${this.host}/${hostPort(this.host)}`;
      case 'host_nul_port':
        return `${this.host}\0${this.port}`;
      case 'redis_url_db':
        return `redis://${hostPort(this.host)}/0`;
      case 'redis_url':
        return this.v6 ? `redis://[${this.host}]:${this.port}` : `redis://${hostPort(this.host)}`;
      case 'ip_end_point':
        if (this.v4) return hostPort(this.host);
        if (this.v6) return `[${compressedIpv6(this.v6)}]:${this.port}`;
        throw new UnsupportedError(this.label);
      case 'java_evcache': {
        // EVCache writes the port as 11211 whatever it is; a host name needs its address.
        let ip;
        if (this.v4) ip = this.host;
        else if (this.v6) ip = javaIpv6(this.v6);
        else throw new UnsupportedError(this.label);
        return `${ip}/${ip}:${DEFAULT_PORT}`;
      }
      case 'nginx_host_nul_port': {
        const m = /[0-9]*$/.exec(this.label);
        const cut = this.label.length - m[0].length;
        const head = this.label.substring(0, cut);
        return head.endsWith(':')
          ? `${head.substring(0, head.length - 1)}\0${this.label.substring(cut)}`
          : `${this.label}\0`;
      }
      case 'java_spy':
      case 'java_xmc': {
        const slash = form === 'java_xmc' ? '/' : '';
        if (this.v4) return `${slash}${this.host}:${this.port}`;
        if (this.v6) return `${slash}[${javaIpv6(this.v6)}]:${this.port}`;
        return `${this.host}/<unresolved>:${this.port}`;
      }
      case 'java_host_name_port':
        if (this.v6) return `${javaIpv6(this.v6)}:${this.port}`;
        return hostPort(this.host);
      case 'java_nginx':
      case 'java_host_name': {
        let ip;
        if (this.v4) ip = this.host;
        else if (this.v6) ip = javaIpv6(this.v6);
        else if (form === 'java_host_name') ip = this.host;
        else throw new UnsupportedError(this.label);
        return this.port === DEFAULT_PORT ? ip : `${ip}:${this.port}`;
      }
      default:
        throw new UnsupportedError(`node form ${form}`);
    }
  }
}

module.exports = { Server, parseIpv4, parseIpv6, compressedIpv6, DEFAULT_PORT };
