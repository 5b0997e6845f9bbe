import nodemailer from 'nodemailer';
import { developmentMailer, type Mailer, type MailSettings } from './port.ts';

/** Sends through the SMTP server of SMTP_URL, from MAIL_FROM. */
export function smtpMailer(smtpUrl: string, mailFrom: string): Mailer {
  // A server that stops answering gives up well within the outbox's 5-minute claim on a message,
  // so no other worker takes the message while this one still waits.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
  const domain = mailFrom.split('@')[1]?.replace(/[>\s].*$/, '') || 'localhost';
  return {
    transport: 'smtp',
    async send(message) {
      await transport.sendMail({
        from: mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: `<${message.id}@${domain}>`,
      });
    },
    async close() {
      transport.close();
    },
  };
}

/** The configured mailer: SMTP when SMTP_URL is set, else the development adapter. */
export function configuredMailer(settings: MailSettings): Mailer {
  if (!settings.smtpUrl) return developmentMailer;
  return smtpMailer(settings.smtpUrl, settings.mailFrom ?? 'no-reply@localhost');
}
