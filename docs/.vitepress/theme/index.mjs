// The default theme plus <LiveExample>, which each generated element page uses.
import DefaultTheme from 'vitepress/theme';
import LiveExample from './LiveExample.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('LiveExample', LiveExample);
  },
};
