// The mail port: how a message leaves the product. SMTP (nodemailer) when SMTP_URL is set;
// otherwise the development adapter, which sends nothing: the outbox row marked sent is the
// record ("Sent messages" shows it).

export interface MailMessage {
  /** The outbox row's id: sent as the Message-ID, so a receiving server can tell a repeat. */
  id: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** 'smtp' or 'development': kept on the row as where it went. */
  readonly transport: 'smtp' | 'development';
  /** Resolves when the server has taken the message; rejects with the server's reason. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailSettings {
  /** SMTP_URL: smtp://user:pass@host:587 or smtps://…; unset: the development adapter. */
  smtpUrl?: string | undefined;
  /** MAIL_FROM: the sender of every message. */
  mailFrom?: string | undefined;
}

/** Nothing leaves the machine: the message is "delivered" into the database only. */
export const developmentMailer: Mailer = {
  transport: 'development',
  async send() {},
  async close() {},
};
