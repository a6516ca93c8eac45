export { createMailer, MAIL_LOG_MESSAGE, type Mailer, type MailMessage, type MailerOptions } from './mailer';
