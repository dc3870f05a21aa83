// Calls to the Clipnest API from the benchmarks, with the admin token.

/** A JSON API call with the admin token; answers `data`, throws on a non-2xx answer. */
export async function api(server, token, method, urlPath, body, retried = false) {
  let res;
  try {
    res = await fetch(server.url + urlPath, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // A keep-alive socket the server closed while idle (e.g. during the aws run): retry once.
    if (retried) throw error;
    return api(server, token, method, urlPath, body, true);
  }
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${json.message}`);
  return json.data;
}

/** An S3 storage config (path style) for an emulator such as s3rver; answers its view. */
export function addS3Config(server, token, { name, endpoint, bucket }) {
  return api(server, token, 'POST', '/api/s3-configs', {
    name,
    provider: 'other',
    endpoint,
    bucket,
    region: 'us-east-1',
    access_key_id: 'S3RVER',
    secret_access_key: 'S3RVER',
    path_style: true,
  });
}

/**
 * A local storage config rooted at DATA_DIR/storage/mounted, for mounts (the built-in local storage holds
 * the file shares and cannot be mounted); answers `{ id, root }`.
 */
export async function addMountableLocalConfig(server, token) {
  const root = `${server.dataDir}/storage/mounted`;
  const config = await api(server, token, 'POST', '/api/s3-configs', {
    name: 'bench local',
    storage_type: 'local',
    root_path: root,
  });
  return { id: config.id, root: config.root_path };
}
