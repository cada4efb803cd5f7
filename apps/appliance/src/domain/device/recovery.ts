import type { CloudClient } from '@waved/psp-cloud';
import type { Logger } from '../../core/log/logger.js';
import type { CloudSession } from './session.js';

/** Password recovery (spec Endpoints B, `{summary_url}/summary/service/device/password/recover/…`). */
export interface PasswordRecovery {
  /** The cloud sends a code to the device's owner. */
  sendCode(): Promise<{ sent: boolean }>;
  /** Checks the code the owner got; the code is never logged. */
  verifyCode(code: string): Promise<{ verified: boolean }>;
}

/**
 * Both calls need a device token: the session is established first when it is not ready (the
 * device application's own session, or a one-off one for `waved password recover`).
 */
export function createPasswordRecovery(options: {
  client: Pick<CloudClient, 'sendPasswordRecoveryCode' | 'verifyPasswordRecoveryCode'>;
  session: Pick<CloudSession, 'isReady' | 'establish'>;
  logger: Logger;
}): PasswordRecovery {
  const { client, session, logger } = options;
  return {
    async sendCode() {
      if (!session.isReady()) await session.establish();
      const r = await client.sendPasswordRecoveryCode();
      logger.info?.(
        `password recovery: ${r.sent ? 'a code was sent to the owner' : 'the cloud sent no code'}`,
      );
      return r;
    },
    async verifyCode(code) {
      if (!session.isReady()) await session.establish();
      const r = await client.verifyPasswordRecoveryCode(code);
      logger.info?.(`password recovery: the code was ${r.verified ? 'accepted' : 'not accepted'}`);
      return r;
    },
  };
}
