// How every test and bench starts Chromium here (Debian's package, or CHROME_PATH).
export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
