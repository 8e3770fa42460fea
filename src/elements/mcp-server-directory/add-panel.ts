// What the directory needs only once an entry is opened (Add, or a package's relay command): a
// chunk of its own in the CDN build, so a search costs only the list. The manager's check of a
// saved server against its registry's newer version (remoteUpdate) comes here too.
export { renderAddForm, startAdding } from './add-form.js';
export { chooseRemote, fromWebsite, relayCommand, remoteUpdate } from '../../core/registry/index.js';
