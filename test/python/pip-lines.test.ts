/** The packages the server installs before a cell runs, read from its `%pip install` / `!pip install` lines. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pipInstallNames } from '../../src/python/pip-lines.js';

describe('pipInstallNames', () => {
  it('reads %pip and !pip (pip3) install lines, dropping options that change nothing, specifiers and extras', () => {
    assert.deepEqual(pipInstallNames('%pip install scipy\n!pip3 install -q --upgrade pandas==2.0 "requests[socks]>=2"\n'), [
      'scipy',
      'pandas',
      'requests',
    ]);
    assert.deepEqual(pipInstallNames('if True:\n    !pip install --progress-bar off seaborn  # for plots\n'), ['seaborn']);
    assert.deepEqual(pipInstallNames('%pip install a\n%pip install a b'), ['a', 'b']);
  });

  it('leaves to the cell what it refuses or cannot read: other options, variables', () => {
    assert.deepEqual(pipInstallNames('%pip install -r requirements.txt'), []);
    assert.deepEqual(pipInstallNames('%pip install -e . x'), []);
    assert.deepEqual(pipInstallNames('!pip install {name}'), []);
  });

  it('skips lines that are not statements: strings, continuations, other commands', () => {
    assert.deepEqual(pipInstallNames('s = """\n%pip install inside\n"""\nx = 1 + \\\n%pip install nope\n'), []);
    assert.deepEqual(pipInstallNames("print('%pip install x')\n# %pip install y\n!pip list\n"), []);
  });
});
