/** The one wording for a required field left empty, in every form of every element. */
export const REQUIRED_MESSAGE = 'This field is required.';
