import { labAppRouter, losingReplies } from "./compose-lab";
import { env, labEnabled } from "./env";
import { getServices } from "./services";
import { handleTrpcRequest } from "./trpc/http-handler";
import { appRouter } from "./trpc/routers/_app";
import { servedRouter } from "./trpc/served-router";

type Handler = (request: Request) => Promise<Response>;
let assembled: Handler | undefined;

/** The API this process serves: the production router, or the demo's with the lab's lost replies. */
export function serveApi(request: Request): Promise<Response> {
  assembled ??= assemble();
  return assembled(request);
}

function assemble(): Handler {
  const services = getServices();
  const lab = labEnabled();
  const router = servedRouter(lab ? labAppRouter : appRouter, { benchBaseline: env.BENCH_BASELINE === "1" });
  const handle: Handler = (request) => handleTrpcRequest(request, services, router);
  return lab ? losingReplies(services.db, services.account, handle) : handle;
}
