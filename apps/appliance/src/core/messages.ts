import { type Message, message, type Translator, translator } from '../i18n/index.js';
import type { FailureReason } from './bus.js';

/**
 * Why a connection attempt failed, as one message per reason: the portal, the device screens and
 * the controller's log all show this text, each in its own language (the log in English).
 */
export const FAILURE_MESSAGES: Readonly<Record<FailureReason, Message>> = {
  'wrong-password': message('failure.wrong-password'),
  'network-not-found': message('failure.network-not-found'),
  'no-address': message('failure.no-address'),
  'association-timeout': message('failure.association-timeout'),
  'ap-failed': message('failure.ap-failed'),
};

/** The message for a failure reason; a reason this version does not know gets a generic text. */
function failureMessage(reason: string): Message {
  return Object.hasOwn(FAILURE_MESSAGES, reason)
    ? FAILURE_MESSAGES[reason as FailureReason]
    : message('failure.unknown');
}

const english = translator('en');

/**
 * The one formatter of a failure reason: the portal and the screens pass the translator of their
 * language, the controller's log and the `Failed` state's `message` take the default, English.
 */
export function formatFailure(reason: string, tr: Translator = english): string {
  return tr.text(failureMessage(reason));
}
