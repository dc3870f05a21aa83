// Preloaded (`node --import`) into a server the benches start but did not write (CloudPaste listens on every
// address by default): a listen() on a port with no host, or on a wildcard host, binds 127.0.0.1 instead.
import net from 'node:net';

const WILDCARD = new Set([undefined, null, '', '0.0.0.0', '::']);
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (WILDCARD.has(args[1]) || typeof args[1] === 'function') {
      const rest = WILDCARD.has(args[1]) ? args.slice(2) : args.slice(1);
      return listen.call(this, args[0], '127.0.0.1', ...rest);
    }
  } else if (args[0] && typeof args[0] === 'object' && 'port' in args[0] && WILDCARD.has(args[0].host)) {
    return listen.call(this, { ...args[0], host: '127.0.0.1' }, ...args.slice(1));
  }
  return listen.apply(this, args);
};
