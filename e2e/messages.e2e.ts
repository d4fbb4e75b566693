import { type Browser, expect, type Locator, type Page, test } from '@playwright/test'
import { closeDevices, createReadyUser, fillLogin, newDevice, type NewUser, operatorWithWorkOrder } from './helpers'

/**
 * Message threads (issue 7): an operator and production on a job (the operator from the work
 * session's messages tab at 1024x768, production from the work order's messages tab, which
 * gathers the work order's thread and its jobs' threads), and two production users on a work
 * order. Unread badges, reply, edit and delete of own messages. Polls run every 5-10 s.
 */

const TABLET = { width: 1024, height: 768 }
const DESKTOP = { width: 1280, height: 860 }
/** A badge or a poll shows what the other side did within two poll periods. */
const POLLED = { timeout: 25_000 }

/** A one-phase work order assigned to a new operator; two new production users. */
async function setup(baseURL: string) {
  const planner = await createReadyUser(baseURL, 'production', { name: 'Piero', surname: 'Planner' })
  const planner2 = await createReadyUser(baseURL, 'production', { name: 'Sofia', surname: 'Turno' })
  const { operator, wo, woCode, job } = await operatorWithWorkOrder(baseURL, {
    prefix: 'MSG',
    description: 'Valvola a sfera DN25',
    operator: { name: 'Marta', surname: 'Operaia' },
    quantity: 6,
    phases: [{ name: 'Montaggio', steps: [{ type: 'instruction', title: 'Monta la valvola', text: '', fields: [] }] }],
  })
  return { operator, planner, planner2, wo, woCode, job }
}

test.afterEach(closeDevices)

/** A new browser at a screen: signing in there leads back to it (a reload would lock the session). */
async function open(browser: Browser, user: NewUser, viewport: { width: number; height: number }, path: string): Promise<Page> {
  const page = await newDevice(browser, { viewport })
  await page.goto(path)
  await expect(page).toHaveURL(/\/login/)
  await fillLogin(page, user.username, user.password)
  await expect(page).toHaveURL(new RegExp(path))
  return page
}

const composer = (page: Page) => page.getByTestId('message-composer').getByRole('textbox', { name: 'Message text' })
const messages = (page: Page) => page.getByTestId('message-thread').getByTestId('message')
const message = (page: Page, text: string) => messages(page).filter({ hasText: text })
const badge = (tab: Locator) => tab.getByTestId('unread-badge')

test('an operator and production talk on a job; production users on a work order; edit and delete own messages', async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  const s = await setup(baseURL!)

  // The operator writes from the work session (the job need not be running).
  const op = await open(browser, s.operator, TABLET, `/app/operator/job/${s.job}/messages`)
  await expect(op.getByTestId('thread-empty')).toBeVisible()
  await expect(op.getByTestId('message-composer').getByTestId('message-send')).toBeDisabled()
  await composer(op).fill('La guarnizione del lotto 1 è difettosa: ne ho altre?')
  await composer(op).press('Control+Enter')
  await expect(message(op, 'La guarnizione del lotto 1')).toHaveAttribute('data-own', 'true')
  await expect(composer(op)).toHaveValue('')
  // Empty text cannot be sent: the button stays off for blanks.
  await composer(op).fill('   ')
  await expect(op.getByTestId('message-composer').getByTestId('message-send')).toBeDisabled()
  await composer(op).fill('')

  // Production: the work order's messages tab counts the job thread's unread message.
  const prod = await open(browser, s.planner, DESKTOP, `/app/production/workorder/${s.wo}/job-list`)
  const prodTab = prod.getByRole('tab', { name: /Messages/ })
  await expect(badge(prodTab)).toHaveText('1', POLLED)
  await prodTab.click()
  const jobLink = prod.locator(`[data-thread="job/${s.job}"]`)
  await expect(badge(jobLink)).toHaveText('1')
  await jobLink.click()
  await expect(message(prod, 'La guarnizione del lotto 1')).toContainText('Marta Operaia')
  await expect(message(prod, 'La guarnizione del lotto 1')).not.toHaveAttribute('data-own')
  // Shown: read, the badges go.
  await expect(badge(jobLink)).toHaveCount(0, POLLED)
  await expect(badge(prodTab)).toHaveCount(0, POLLED)

  // The operator looks at the notes meanwhile: the reply lights the messages tab badge.
  await op.getByTestId('tab-notes').click()
  await composer(prod).fill('Sì, ne porto 5 dal magazzino entro 10 minuti.')
  await prod.getByTestId('message-composer').getByTestId('message-send').click()
  await expect(message(prod, 'ne porto 5')).toHaveAttribute('data-own', 'true')
  await expect(badge(op.getByTestId('tab-messages'))).toHaveText('1', POLLED)
  await op.screenshot({ path: '/tmp/msg-operator-badge.png' })
  await op.getByTestId('tab-messages').click()
  await expect(message(op, 'ne porto 5')).toContainText('Piero Planner')
  await expect(badge(op.getByTestId('tab-messages'))).toHaveCount(0, POLLED)

  // While the thread is open, a new message arrives without reloading (the newest in sight).
  await composer(prod).fill('Arrivano con il carrello blu.')
  await composer(prod).press('Control+Enter')
  await expect(message(op, 'carrello blu')).toBeInViewport(POLLED)

  // The operator corrects and withdraws own messages.
  await composer(op).fill('Grazie, aspetto qui.')
  await composer(op).press('Control+Enter')
  const own = message(op, 'La guarnizione del lotto 1')
  await own.getByTestId('message-edit-open').click()
  await own.getByTestId('message-edit').getByRole('textbox').fill('La guarnizione del lotto 1 è difettosa: ne servono 5.')
  await own.getByTestId('message-edit').getByRole('button', { name: 'Save' }).click()
  await expect(own).toContainText('ne servono 5')
  await expect(own.getByTestId('message-edited')).toHaveText('(edited)')
  await message(op, 'Grazie, aspetto qui.').getByTestId('message-remove').click()
  await op.getByTestId('message-remove-confirm').click()
  await expect(messages(op).last()).toHaveAttribute('data-deleted', 'true')
  await expect(messages(op).last()).toContainText('Message deleted')
  await expect(op.getByRole('dialog')).toHaveCount(0)
  // Others' messages have no edit or delete.
  await expect(message(op, 'carrello blu').getByTestId('message-edit-open')).toHaveCount(0)
  await own.scrollIntoViewIfNeeded()
  await op.screenshot({ path: '/tmp/msg-operator-job.png' })
  // Production sees the edit and the deletion at the next poll.
  await expect(message(prod, 'ne servono 5').getByTestId('message-edited')).toBeVisible(POLLED)
  await expect(prod.getByTestId('message-thread').locator('[data-deleted]')).toHaveCount(1, POLLED)

  // The work order thread: production writes, a colleague gets the badge and replies.
  await prod.locator(`[data-thread="work_order/${s.wo}"]`).click()
  await expect(prod.getByTestId('thread-empty')).toBeVisible()
  await composer(prod).fill('Consegna anticipata a giovedì: priorità a questo ordine.')
  await composer(prod).press('Control+Enter')
  await expect(message(prod, 'Consegna anticipata')).toBeVisible()
  await composer(prod).fill('Messaggio sbagliato')
  await composer(prod).press('Control+Enter')
  await message(prod, 'Messaggio sbagliato').getByTestId('message-remove').click()
  await prod.getByTestId('message-remove-confirm').click()
  await expect(message(prod, 'Message deleted')).toHaveCount(1)

  const prod2 = await open(browser, s.planner2, DESKTOP, `/app/production/workorder/${s.wo}/job-list`)
  const prod2Tab = prod2.getByRole('tab', { name: /Messages/ })
  // The job thread (3 left, 1 deleted) and the work order's (1; the deleted one does not count).
  await expect(badge(prod2Tab)).toHaveText('4', POLLED)
  await prod2Tab.click()
  await expect(badge(prod2.locator(`[data-thread="work_order/${s.wo}"]`))).toHaveText('1')
  await prod2.screenshot({ path: '/tmp/msg-workorder-badges.png' })
  await expect(message(prod2, 'Consegna anticipata')).toContainText('Piero Planner')
  await composer(prod2).fill('Ok, sposto il secondo turno su questo ordine.')
  await composer(prod2).press('Control+Enter')
  await expect(badge(prod2.locator(`[data-thread="work_order/${s.wo}"]`))).toHaveCount(0, POLLED)
  await expect(badge(prod2Tab)).toHaveText('3', POLLED)
  await expect(message(prod, 'secondo turno')).toContainText('Sofia Turno', POLLED)
  await prod.screenshot({ path: '/tmp/msg-workorder.png' })
})
