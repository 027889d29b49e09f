/**
 * A POST to the API through a cluster's balancer (`url()` answers its address when the call is made): the HTTP
 * status, the envelope, which process answered (`X-Served-By`) and whether it was a keyed write's replay.
 */
export function clusterCaller(url: () => string) {
  return async function call(path: string, body: unknown = {}, token?: string, key?: string) {
    const res = await fetch(`${url()}/api/v2/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
    const envelope = (await res.json()) as { code: number; msg: string; data: any };
    return {
      status: res.status,
      servedBy: res.headers.get('x-served-by'),
      replayed: res.headers.get('idempotent-replayed'),
      ...envelope,
    };
  };
}
