/** The messenger's in-app browser says MicroMessenger; its enterprise variant adds wxwork. */
export function isMessengerBrowser(userAgent: string | null | undefined) {
  return /MicroMessenger/i.test(userAgent ?? "");
}

export function isEnterpriseMessenger(userAgent: string | null | undefined) {
  return isMessengerBrowser(userAgent) && /wxwork/i.test(userAgent ?? "");
}
