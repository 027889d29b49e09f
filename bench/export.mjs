export async function exportBench() { return []; }
