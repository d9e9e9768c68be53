/** A request's body that fails with `tooLarge()` past `limit` bytes: by its Content-Length, or as it streams in. */
export function limitedBody(request: Request, limit: number, tooLarge: () => Error) {
  if (Number(request.headers.get("content-length") ?? 0) > limit)
    return new ReadableStream({ start: (controller) => controller.error(tooLarge()) });
  let received = 0;
  return (request.body ?? new ReadableStream()).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}
