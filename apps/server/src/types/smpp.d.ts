// The parts of the `smpp` package (node-smpp, no types of its own) the portal uses.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';

  export interface Pdu {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(fields?: Record<string, unknown>): Pdu;
  }
  export interface Session extends EventEmitter {
    bind_transmitter(fields: Record<string, unknown>, callback: (pdu: Pdu) => void): void;
    submit_sm(fields: Record<string, unknown>, callback: (pdu: Pdu) => void): void;
    unbind(callback?: (pdu: Pdu) => void): void;
    send(pdu: Pdu): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
  }
  export interface Server extends EventEmitter {
    listen(port: number, host: string, callback?: () => void): void;
    close(callback?: () => void): void;
    address(): { port: number };
  }
  export function connect(
    options: { url: string; auto_enquire_link_period?: number; connectTimeout?: number },
    listener?: () => void,
  ): Session;
  export function createServer(listener: (session: Session) => void): Server;
  export const encodings: { detect(text: string): 'ASCII' | 'LATIN1' | 'UCS2' };
  /** The PDU field filters; `message` decodes short_message and message_payload by the PDU's data_coding. */
  export const filters: {
    message: { decode(this: { data_coding: number; esm_class: number }, value: Buffer): unknown };
  };
  export const ESME_ROK: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RSYSERR: number;
}
