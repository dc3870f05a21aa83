/** Building blocks of the settings pages: form state, page frame, sections and one component per kind of setting. */
export { SettingChoices } from './SettingChoices';
export { SettingField, SettingInput, SettingTextarea } from './SettingField';
export { SettingsPageFrame } from './SettingsPageFrame';
export { SettingsSection } from './SettingsSection';
export { SettingSwitch } from './SettingSwitch';
export { fieldProps, settingsQueryKey, useSettingsForm, type SettingsForm } from './useSettingsForm';
