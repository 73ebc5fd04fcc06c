/** What each warm-up cell runs: the commonest call, an expression whose value comes back. */
export const WARM_UP_CELL = '1+1';
export const WARM_UP_LIMITS = { stdout: 1000, stderr: 1000, result: 1000, traceback: 1000 };
/** Cells per turn of the worker's queue. */
const CELLS_PER_TURN = 10;
/** Runs up to `cells` warm-up cells; resolves to how many ran. */
export async function warmUp(cells, steps) {
    let ran = 0;
    while (ran < cells && !steps.stop()) {
        await steps.yieldNow();
        ran += await steps.work.run(async () => {
            let turn = 0;
            while (turn < CELLS_PER_TURN && ran + turn < cells && !steps.stop()) {
                await steps.runCell();
                turn++;
            }
            return turn;
        });
    }
    return ran;
}
