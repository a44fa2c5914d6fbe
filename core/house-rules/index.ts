/** House rules: rules a repository defines in its config (`given` and `then`, no code), run as gates like the built-in ones. */
export { houseRules } from './catalog.js';
