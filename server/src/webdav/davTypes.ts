/** One condition of an `If` header list: a lock token or an entity tag, maybe negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** One list of an `If` header (conditions ANDed); lists are ORed. `resource` is the tagged virtual path. */
export interface IfList {
  resource?: string;
  conditions: IfCondition[];
}

export type DavDepth = '0' | '1' | 'infinity';

export interface DavResource {
  path: string;
  name: string;
  isDir: boolean;
  size: number;
  lastModified: Date;
  etag?: string;
  contentType?: string;
  /** RFC 4331, when asked for and known: the storage's used bytes and the bytes that may still be written. */
  quota?: { usedBytes: number; availableBytes: number };
}

export interface DavLock {
  token: string;
  /** The locked virtual path (the lock root). */
  root: string;
  depth: '0' | 'infinity';
  scope: 'exclusive' | 'shared';
  /** The DAV:owner element as XML, '' when none. */
  owner: string;
  timeoutSeconds: number;
}

export interface DavDeadProperty {
  ns: string;
  name: string;
  /** The property element as XML. */
  xml: string;
}

/** One resource of a PROPFIND answer with what the reply needs to shape its properties. */
export interface DavPropfindItem {
  resource: DavResource;
  dead: DavDeadProperty[];
  locks: DavLock[];
}

export type DavPropertyChange =
  { op: 'set'; ns: string; name: string; xml: string } | { op: 'remove'; ns: string; name: string };
