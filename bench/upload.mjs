export async function uploadBench() { return []; }
