import { serveApi } from "~/server/api";

export { serveApi as GET, serveApi as POST };
