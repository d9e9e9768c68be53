import { request as httpRequest } from "node:http";

/** The status a POST gets whose headers announce `contentLength` bytes but whose body stops after `start`; fails after 2 s without one. */
export function statusOfUnfinishedBody(
  url: string,
  headers: Record<string, string>,
  contentLength: number,
  start: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: "POST",
      headers: { ...headers, "content-length": contentLength },
      // Without an answer by then, the server is waiting for the body.
      signal: AbortSignal.timeout(2_000),
    });
    request.on("response", (response) => {
      resolve(response.statusCode!);
      request.destroy();
    });
    request.on("error", reject);
    request.write(start);
  });
}
