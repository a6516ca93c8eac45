/**
 * The runtime settings (spec: Setting) created on first start. `to` is the read audience,
 * `canEdit` who may write it, `ui.type` how the admin dashboard edits it (`redacted` values are
 * never returned and never writable through the API).
 */
export interface SettingDefault {
  name: string;
  value: (ctx: { domain: string; siteTitle: string }) => unknown;
  summary: string;
  to: '@public' | '@server' | '@admin' | '@private';
  canEdit: '@admin' | '@private';
  ui: { type: string; label?: string; group?: string; options?: unknown };
}

const FLAG_OPTIONS = {
  spam: { label: 'Spam', description: 'Unsolicited or repetitive content' },
  harassment: { label: 'Harassment', description: 'Targeted abuse of a person' },
  hate_speech: { label: 'Hate speech', description: 'Attacks on protected groups' },
  threats: { label: 'Threats', description: 'Threats of violence' },
  sexual_content: { label: 'Sexual content', description: 'Unwanted sexual content' },
  child_exploitation: { label: 'Child exploitation', description: 'Content exploiting minors' },
  self_harm: { label: 'Self-harm', description: 'Promotes self-harm' },
  misinformation: { label: 'Misinformation', description: 'Deliberately false information' },
  illegal: { label: 'Illegal', description: 'Illegal content or activity' },
  impersonation: { label: 'Impersonation', description: 'Pretends to be someone else' },
  terrorism: { label: 'Terrorism', description: 'Promotes terrorism' },
  graphic_violence: { label: 'Graphic violence', description: 'Gratuitous violence' },
  other: { label: 'Other', description: 'Something else' },
};

export const SETTING_DEFAULTS: SettingDefault[] = [
  {
    name: 'actorId',
    value: ({ domain }) => `@${domain}`,
    summary: 'Server actor id',
    to: '@public',
    canEdit: '@private',
    ui: { type: 'redacted' },
  },
  {
    name: 'domain',
    value: ({ domain }) => domain,
    summary: 'Canonical domain (from DOMAIN)',
    to: '@public',
    canEdit: '@private',
    ui: { type: 'text' },
  },
  {
    name: 'adminEmail',
    value: () => '',
    summary: 'Sender and contact address',
    to: '@admin',
    canEdit: '@admin',
    ui: { type: 'email' },
  },
  {
    name: 'adminCircle',
    value: () => '',
    summary: 'Circle whose members are admins',
    to: '@admin',
    canEdit: '@private',
    ui: { type: 'redacted' },
  },
  {
    name: 'modCircle',
    value: () => '',
    summary: 'Circle whose members are moderators',
    to: '@admin',
    canEdit: '@private',
    ui: { type: 'redacted' },
  },
  {
    name: 'profile',
    value: ({ domain, siteTitle }) => ({
      name: siteTitle,
      subtitle: 'A new Agora server',
      description: '<p>A new Agora server.</p>',
      icon: '',
      image: '',
      urls: [`https://${domain}`],
    }),
    summary: 'Server public profile',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'json' },
  },
  {
    name: 'registrationIsOpen',
    value: () => true,
    summary: 'Anyone may register (else an invite is needed)',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'boolean' },
  },
  {
    name: 'requireEmailVerification',
    value: () => false,
    summary: 'Registration needs a verified e-mail',
    to: '@admin',
    canEdit: '@admin',
    ui: { type: 'boolean' },
  },
  {
    name: 'rules',
    value: () => [],
    summary: 'Server rules every new user acknowledges',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'rules' },
  },
  {
    name: 'flagOptions',
    value: () => FLAG_OPTIONS,
    summary: 'Reasons a user can give when flagging',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'json' },
  },
  {
    name: 'reactEmojis',
    value: () => [
      { name: 'Like', emoji: '👍' },
      { name: 'Laugh', emoji: '😂' },
      { name: 'Love', emoji: '❤️' },
      { name: 'Sad', emoji: '😭' },
      { name: 'Angry', emoji: '🤬' },
      { name: 'Shocked', emoji: '😮' },
      { name: 'Puke', emoji: '🤮' },
    ],
    summary: 'Reaction palette',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'json' },
  },
  {
    name: 'maxUploadSize',
    value: () => 100,
    summary: 'Upload limit in MB',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'number' },
  },
  {
    name: 'maxImageUploadSize',
    value: () => 40,
    // libvips reads a compressed image whole before decoding it; this bounds that memory.
    summary: 'Image upload limit in MB (images are re-encoded in memory)',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'number' },
  },
  {
    name: 'allowedUploadTypes',
    value: () => ['image', 'video', 'audio', 'application/pdf'],
    summary: 'Upload types allowed: media types or families (image, video, audio), within the built-in list',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'json' },
  },
  {
    name: 'userStorageQuota',
    value: () => 1024,
    summary: 'Storage per user in MB (0: no limit)',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'number' },
  },
  {
    name: 'gcRetentionDays',
    value: () => 30,
    summary: 'Days soft-deleted objects are kept',
    to: '@admin',
    canEdit: '@admin',
    ui: { type: 'number' },
  },
  {
    name: 'discoverBackground',
    value: () => '',
    summary: 'Discover background image',
    to: '@public',
    canEdit: '@admin',
    ui: { type: 'image' },
  },
  {
    name: 'publicKey',
    value: () => '',
    summary: 'Server public key (PEM)',
    to: '@public',
    canEdit: '@private',
    ui: { type: 'redacted' },
  },
  {
    name: 'privateKey',
    value: () => '',
    summary: 'Server private key (PEM)',
    to: '@private',
    canEdit: '@private',
    ui: { type: 'redacted' },
  },
];
