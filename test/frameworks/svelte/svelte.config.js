// svelte-check reads this (else it looks for a Svelte plugin in the repository's vite.config).
export default {};
