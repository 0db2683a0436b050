import { MSG } from '@parley/protocol';
import { HttpError } from '../../platform/errors';

// The profile update form's own rule; the form itself is read by platform/picture-form.

const REQUIRED = {
  first_name: MSG.firstNameRequired,
  last_name: MSG.lastNameRequired,
  username: MSG.usernameRequired,
};

/** 400 carrying SPEC §5's sentence as detail and each missing field's own message. */
export class ProfileFieldsRequiredError extends HttpError {
  constructor(fields: Record<string, string[]>) {
    super(400, { detail: MSG.profileRequired, ...fields });
  }
}

/** Refuses a form without first name, last name or username before anything else is looked at. */
export function assertRequiredFields(fields: Record<string, unknown>): void {
  const missing: Record<string, string[]> = {};
  for (const [name, message] of Object.entries(REQUIRED)) {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '') missing[name] = [message];
  }
  if (Object.keys(missing).length > 0) throw new ProfileFieldsRequiredError(missing);
}
