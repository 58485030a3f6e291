// What a route answers for a domain refusal: its status and the catalogue's message. Each
// domain's table maps every reason it can give to one (a missing reason fails to compile).
export type RefusalAnswer = { status: number; message: string };
export type RefusalTable<Reason extends string> = Record<Reason, RefusalAnswer>;
