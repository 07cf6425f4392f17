// The name the CLI and the start banner give the svc command in their hints: the way this process was started.
import { expect } from 'chai';
import { cliProgram } from '../../server/src/cli-program.js';

describe('the svc command as the hints name it', () => {
  it('is npx svc under npx, and for the sources started any other way than a linked svc', () => {
    expect(cliProgram({ script: '/root/.npm/_npx/79bc4d0c/node_modules/.bin/svc', npmCommand: 'exec', cwd: '/repo' })).to.equal('npx svc');
    expect(cliProgram({ script: '/repo/bin/svc.js', cwd: '/repo' })).to.equal('npx svc');
    expect(cliProgram({ script: '/repo/server/src/main.ts', npmCommand: 'start', cwd: '/repo' })).to.equal('npx svc');
  });

  it('is svc when started as the svc that npm link put on the path', () => {
    expect(cliProgram({ script: '/usr/local/bin/svc', cwd: '/home/me' })).to.equal('svc');
  });
});
