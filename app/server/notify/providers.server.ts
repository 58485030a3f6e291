// Where the outbox's messages go: the real messenger API (an app id is configured), or in
// development a log provider that writes one line per message and accepts it. In production
// without an app id there is no provider: messages wait in the outbox until one is configured.
import { config } from "../config.server";
import { log } from "../log.server";
import { MessengerApiError, sendSubscribeMessage, sendTemplateMessage, type ApiFailureKind } from "./messenger-api.server";

export type Delivery =
  | {
      channel: "template";
      messageId: number;
      openid: string;
      templateId: string;
      data: Record<string, { value: string }>;
      url?: string;
    }
  | {
      channel: "subscribe";
      messageId: number;
      openid: string;
      templateId: string;
      scene: number;
      title: string;
      content: string;
      url?: string;
    };

export type ProviderResult =
  | { ok: true; msgid: string | null }
  | { ok: false; kind: ApiFailureKind; errcode: number | null; detail: string };

export interface NotifyProvider {
  name: "real" | "log";
  send(delivery: Delivery): Promise<ProviderResult>;
}

export const realProvider: NotifyProvider = {
  name: "real",
  async send(delivery) {
    try {
      const msgid =
        delivery.channel === "template"
          ? await sendTemplateMessage({
              touser: delivery.openid,
              template_id: delivery.templateId,
              ...(delivery.url ? { url: delivery.url } : {}),
              client_msg_id: String(delivery.messageId),
              data: delivery.data,
            })
          : await sendSubscribeMessage({
              touser: delivery.openid,
              template_id: delivery.templateId,
              ...(delivery.url ? { url: delivery.url } : {}),
              scene: String(delivery.scene),
              title: delivery.title,
              data: { content: { value: delivery.content } },
            });
      return { ok: true, msgid };
    } catch (error) {
      if (error instanceof MessengerApiError) return { ok: false, kind: error.kind, errcode: error.errcode, detail: error.message };
      return { ok: false, kind: "network", errcode: null, detail: String(error) };
    }
  },
};

/** Development: one log line per message (never the openid), accepted at once. */
export const logProvider: NotifyProvider = {
  name: "log",
  async send(delivery) {
    log("info", "notify-log-provider", {
      messageId: delivery.messageId,
      channel: delivery.channel,
      templateId: delivery.templateId,
      ...(delivery.channel === "template" ? { data: delivery.data } : { title: delivery.title, content: delivery.content }),
      url: delivery.url,
    });
    return { ok: true, msgid: `log-${delivery.messageId}` };
  },
};

export function currentProvider(): NotifyProvider | null {
  switch (config().notify.provider) {
    case "real":
      return realProvider;
    case "log":
      return logProvider;
    default:
      return null;
  }
}
