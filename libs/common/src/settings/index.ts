export { SETTING_DEFAULTS, type SettingDefault } from './defaults';
