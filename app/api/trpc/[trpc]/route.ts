import { getServices } from "~/server/services";
import { handleTrpcRequest } from "~/server/trpc/http-handler";

function handler(req: Request) {
  return handleTrpcRequest(req, getServices());
}

export { handler as GET, handler as POST };
