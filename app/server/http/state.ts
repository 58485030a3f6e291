import type { Response as ExpressResponse } from "express";
import type { BodyRule, Refusal } from "~/lib/request-limits";
import type { RouteInfo } from "./routes";

/** What the pipeline's steps learn about one request, for the steps after them. */
export type PipelineState = {
  nonce?: string;
  route?: RouteInfo;
  bodyRule?: BodyRule;
  /** Set once the body is over its limit: the action is refused (decision 016). */
  refusal?: Refusal;
  /** The body is left unread after the answer (closeAfterAnswer). */
  lingering?: boolean;
  /** The access guard's answer to a single-fetch data request, thrown by its loaders and action. */
  accessRedirect?: string;
  /** The client network the request counts against (app/lib/client-network.ts). */
  client?: string;
  webRequest?: Request;
};

/** The request's state, kept on the response's locals. */
export function pipelineState(res: ExpressResponse): PipelineState {
  const locals = res.locals as { pipeline?: PipelineState };
  locals.pipeline ??= {};
  return locals.pipeline;
}
