// How the sandbox's scripted agents read a business line: a key menu's options, a spoken menu's, a hold, a recording
// that puts the call through, and a person; and which option fits the objective.
import { expect } from 'chai';
import { CONNECTING, HOLD_ANNOUNCEMENT, KEY_MENU, menuPrompt, SPOKEN_MENU } from '../../server/src/conversation/sandbox-menus.js';
import { chooseOption, readLine } from '../../server/src/voice-agent/menu-choice.js';

describe('reading a business line', () => {
  it('reads a key menu option by option, labels with commas in them whole', () => {
    expect(readLine(menuPrompt(KEY_MENU, 'keys'))).to.deep.equal({
      kind: 'key_menu',
      options: [
        { key: '1', label: 'orders and prices' },
        { key: '2', label: 'deliveries, billing and returns' },
        { key: '0', label: 'anything else' },
      ],
    });
    expect(readLine('To repeat these options, press *. For sales press 3.')).to.deep.equal({
      kind: 'key_menu',
      options: [
        { key: '*', label: 'repeat these options' },
        { key: '3', label: 'sales' },
      ],
    });
  });

  it('reads a spoken menu’s options', () => {
    expect(readLine(menuPrompt(SPOKEN_MENU, 'spoken'))).to.deep.equal({ kind: 'spoken_menu', options: ['orders', 'deliveries', 'billing', 'operator'] });
  });

  it('hears a hold, a recording that puts the call through, and anything else as a person', () => {
    expect(readLine(HOLD_ANNOUNCEMENT)).to.deep.equal({ kind: 'hold' });
    expect(readLine('Your call is important to us.')).to.deep.equal({ kind: 'hold' });
    expect(readLine(CONNECTING)).to.deep.equal({ kind: 'recording' });
    expect(readLine('Hello, front desk.')).to.deep.equal({ kind: 'person' });
    expect(readLine('Sure, go ahead.')).to.deep.equal({ kind: 'person' });
  });

  it('chooses the option sharing the most words with the objective, a word’s other forms included', () => {
    const labels = ['orders and prices', 'deliveries, billing and returns', 'anything else'];
    expect(chooseOption(labels, 'Ask when my delivery will arrive.')).to.equal(1);
    expect(chooseOption(labels, 'Get a price for 40 chairs.')).to.equal(0);
    expect(chooseOption(['a new order', 'prices and quotes', 'anything else'], 'Ask for a quote on a price.')).to.equal(1);
    expect(chooseOption(['orders', 'deliveries', 'billing', 'operator'], 'Ask about a charge on my last bill.')).to.equal(2);
  });

  it('chooses the operator or “anything else” when nothing fits, and the first option when neither is offered', () => {
    expect(chooseOption(['orders and prices', 'deliveries, billing and returns', 'anything else'], 'Demander les horaires du dimanche.')).to.equal(2);
    expect(chooseOption(['orders', 'deliveries', 'billing', 'operator'], 'Ask whether the shop is open on Sunday.')).to.equal(3);
    expect(chooseOption(['sales', 'support'], 'Ask whether the shop is open on Sunday.')).to.equal(0);
  });
});
