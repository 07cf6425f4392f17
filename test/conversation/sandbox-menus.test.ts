// The sandbox's business lines as state machines: the key menu goes two levels deep and puts the caller through to
// a person after the right keys, says a wrong key is not valid and repeats the level it is on; the spoken menu takes
// the option named and repeats for anything else (keys included); both say their prompt again after silence.
import { expect } from 'chai';
import { CONNECTING, KEY_MENU, menuPrompt, SandboxMenu, SPOKEN_MENU } from '../../server/src/conversation/sandbox-menus.js';

const FIRST = 'Thank you for calling Northwind. For orders and prices, press 1. For deliveries, billing and returns, press 2. For anything else, press 0.';
const DELIVERIES = 'Deliveries, billing and returns. For deliveries, press 1. For billing, press 2. For returns, press 3. For anything else, press 0.';
const SPOKEN = 'Thank you for calling Northwind. Please say the department you need: orders, deliveries, billing, or operator.';

describe("the sandbox's menus", () => {
  it('word their prompts option by option', () => {
    expect(menuPrompt(KEY_MENU, 'keys')).to.equal(FIRST);
    expect(menuPrompt(KEY_MENU.options[1]!.next!, 'keys')).to.equal(DELIVERIES);
    expect(menuPrompt(SPOKEN_MENU, 'spoken')).to.equal(SPOKEN);
  });

  it('put the caller through after a key on each of the two levels', () => {
    const menu = new SandboxMenu('keys');
    expect(menu.opening()).to.equal(FIRST);
    expect(menu.pressed('2')).to.deep.equal({ say: DELIVERIES, connected: false });
    expect(menu.pressed('3')).to.deep.equal({ say: CONNECTING, connected: true });
  });

  it('put the caller through at once for the first level’s operator', () => {
    expect(new SandboxMenu('keys').pressed('0')).to.deep.equal({ say: CONNECTING, connected: true });
  });

  it('say a wrong key is not valid and repeat the level they are on, then take a right one', () => {
    const menu = new SandboxMenu('keys');
    expect(menu.pressed('7')).to.deep.equal({ say: `Sorry, that is not a valid choice. ${FIRST}`, connected: false });
    expect(menu.pressed('2').say).to.equal(DELIVERIES);
    expect(menu.pressed('#')).to.deep.equal({ say: `Sorry, that is not a valid choice. ${DELIVERIES}`, connected: false });
    expect(menu.pressed('0')).to.deep.equal({ say: CONNECTING, connected: true });
  });

  it('repeat the prompt after silence, and the key menu waits for a key whatever is said', () => {
    const menu = new SandboxMenu('keys');
    expect(menu.silence()).to.deep.equal({ say: `Sorry, I did not get that. ${FIRST}`, connected: false });
    expect(menu.said('deliveries please')).to.equal(null);
  });

  it('take the option a caller names on the spoken menu, and repeat for anything else, keys included', () => {
    const menu = new SandboxMenu('spoken');
    expect(menu.opening()).to.equal(SPOKEN);
    expect(menu.said('the weather')).to.deep.equal({ say: `Sorry, I did not get that. ${SPOKEN}`, connected: false });
    expect(menu.pressed('2')).to.deep.equal({ say: `Sorry, I did not get that. ${SPOKEN}`, connected: false });
    expect(menu.said('Billing, please.')).to.deep.equal({ say: CONNECTING, connected: true });
  });
});
