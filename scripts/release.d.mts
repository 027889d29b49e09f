export const RELEASE_FILES: string[];
export function release(): string;
