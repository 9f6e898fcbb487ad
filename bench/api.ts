/** A small HTTP client for setting up benchmark data through varsetd's API. */
export const MEDIA_TYPE = 'application/vnd.api+json';

export interface ApiResponse {
  status: number;
  text: string;
  body: any;
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  /** Sends a request; anything but a 2xx is an error, since every benchmark request must succeed. */
  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const send = () =>
      fetch(this.baseUrl + path, {
        method,
        headers: { authorization: this.authorization, 'content-type': MEDIA_TYPE, accept: MEDIA_TYPE },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    // A request is sent once more when its kept-alive connection was closed by the server as it was
    // sent (after a pause longer than varsetd's keep-alive timeout, such as seeding): the server
    // closed an idle connection, so it never saw the request.
    const res = await send().catch(() => send());
    const text = await res.text();
    if (res.status < 200 || res.status > 299)
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return { status: res.status, text, body: text === '' ? undefined : JSON.parse(text) };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body);
  put = (path: string, body?: unknown) => this.request('PUT', path, body);
  delete = (path: string, body?: unknown) => this.request('DELETE', path, body);
}
