// Where renters reach the product, for the links in messages (PUBLIC_URL). Set once by
// startProjector from the configuration; the messages reaction reads it.

let publicUrl = 'http://127.0.0.1:3000';

export function setMessagesPublicUrl(url: string): void {
  publicUrl = url.replace(/\/+$/, '');
}

export function messagesPublicUrl(): string {
  return publicUrl;
}
