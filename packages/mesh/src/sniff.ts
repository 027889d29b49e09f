/**
 * What makes a file an STL, a PLY or an OBJ: one set of rules for the parsers, format detection and the server's
 * content check, so a file the check lets in is a file the parsers read, and the reverse. Each rule also judges
 * the first bytes of a file still arriving (answering 'more' while they cannot tell), so an upload can be refused
 * from its first chunk.
 */
import type { MeshFormat } from './types.js';
import { MeshParseError } from './types.js';
import {
  asciiStlVerdict,
  binaryStlBytesToDecide,
  binaryStlTriangles,
  SNIFF_WINDOW,
  type Verdict,
} from './parse/stl.js';
import { PLY_MAX_HEADER, readPlyHeader } from './parse/ply.js';
import { objVerdict } from './parse/obj.js';

export { SNIFF_WINDOW, type Verdict };

/** Whether the first bytes `head` of a file of `size` bytes are `format`; 'more' when more bytes are needed to tell. */
export function meshContentVerdict(format: MeshFormat, head: Uint8Array, size: number): Verdict {
  switch (format) {
    case 'stl': {
      if (size >= 84 && head.length < Math.min(size, binaryStlBytesToDecide(head))) return 'more';
      if (binaryStlTriangles(head, size) !== null) return 'yes';
      return asciiStlVerdict(head, size);
    }
    case 'ply':
      try {
        if (readPlyHeader(head)) return 'yes';
        return head.length >= Math.min(size, PLY_MAX_HEADER) ? 'no' : 'more';
      } catch (err) {
        if (err instanceof MeshParseError) return 'no';
        throw err;
      }
    case 'obj':
      return objVerdict(head, size);
  }
}
