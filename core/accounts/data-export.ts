import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm'
import { exportWhatsAppData } from '#core/whatsapp/export.ts'
import type { Database } from '#db/client.ts'
import {
  accounts,
  addresses,
  authBackupCodes,
  authFactors,
  claims,
  contactMessages,
  customsDeclarationLines,
  customsDeclarations,
  notifications,
  orderEvents,
  packages,
  purchaseRequests,
  requestItems,
  roleAssignments,
  sessions,
  shipments,
  users,
} from '#db/schema/index.ts'

/**
 * Everything we keep about one account, for "download my data" (GDPR art. 15 and 20): profile,
 * sign-in methods (never password hashes or tokens), second factors (never their secrets),
 * sessions, role history, the messages sent through the contact form with the account's e-mail,
 * the purchase requests with their items and the history the customer is shown, the address book,
 * the notifications, the packages that reached our office (not their photos: those are on the
 * shipping tab) and the shipments (with their tracking, any lost-parcel claim and the customs
 * declaration as it was written).
 */
export async function exportAccountData(db: Database, userId: string) {
  const [profile] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      language: users.language,
      phone: users.phone,
      role: users.role,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId))
  if (!profile) return null
  const [signInMethods, secondFactors, backupCodes, activeSessions, roleHistory, messages] =
    await Promise.all([
      db
        .select({ provider: accounts.providerId, createdAt: accounts.createdAt })
        .from(accounts)
        .where(eq(accounts.userId, userId)),
      db
        .select({
          type: authFactors.type,
          friendlyName: authFactors.friendlyName,
          status: authFactors.status,
          phone: authFactors.phone,
          createdAt: authFactors.createdAt,
          verifiedAt: authFactors.verifiedAt,
          lastUsedAt: authFactors.lastUsedAt,
        })
        .from(authFactors)
        .where(eq(authFactors.userId, userId))
        .orderBy(asc(authFactors.createdAt)),
      db
        .select({ unused: count() })
        .from(authBackupCodes)
        .where(and(eq(authBackupCodes.userId, userId), isNull(authBackupCodes.usedAt))),
      db
        .select({
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          ipAddress: sessions.ipAddress,
          assuranceLevel: sessions.aal,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(asc(sessions.createdAt)),
      db
        .select({ role: roleAssignments.role, assignedAt: roleAssignments.assignedAt })
        .from(roleAssignments)
        .where(eq(roleAssignments.userId, userId)),
      db
        .select({
          subject: contactMessages.subject,
          message: contactMessages.message,
          createdAt: contactMessages.createdAt,
        })
        .from(contactMessages)
        .where(eq(contactMessages.email, profile.email)),
    ])
  return {
    exportedAt: new Date().toISOString(),
    purchaseRequests: await exportPurchaseRequests(db, userId),
    profile,
    signInMethods,
    secondFactors,
    unusedBackupCodes: backupCodes[0]?.unused ?? 0,
    sessions: activeSessions,
    roleHistory,
    contactMessages: messages,
    ...(await exportCustomerData(db, userId)),
    whatsapp: await exportWhatsAppData(db, userId),
  }
}

/** The address book and the notifications (their params, not texts: those are in the locale files). */
async function exportCustomerData(db: Database, userId: string) {
  const [addressBook, notices] = await Promise.all([
    db
      .select({
        fullName: addresses.fullName,
        street: addresses.street,
        city: addresses.city,
        region: addresses.region,
        postalCode: addresses.postalCode,
        country: addresses.country,
        phone: addresses.phone,
        isDefault: addresses.isDefault,
        createdAt: addresses.createdAt,
      })
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .orderBy(asc(addresses.createdAt)),
    db
      .select({
        type: notifications.type,
        params: notifications.params,
        link: notifications.link,
        readAt: notifications.readAt,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      // Their own: staff's work notices are about other people's orders (docs/decisions/036).
      .where(and(eq(notifications.userId, userId), eq(notifications.audience, 'customer')))
      .orderBy(asc(notifications.createdAt)),
  ])
  const [stored, sent] = await Promise.all([
    db
      .select({
        number: packages.number,
        conditionNote: packages.conditionNote,
        arrivedAt: packages.arrivedAt,
      })
      .from(packages)
      .where(eq(packages.userId, userId))
      .orderBy(asc(packages.arrivedAt)),
    db
      .select({
        id: shipments.id,
        number: shipments.number,
        status: shipments.status,
        method: shipments.method,
        address: shipments.address,
        estimatedWeightG: shipments.estimatedWeightG,
        estimatedPriceJpy: shipments.estimatedPriceJpy,
        requestedAt: shipments.requestedAt,
        cancelledAt: shipments.cancelledAt,
        packedWeightG: shipments.packedWeightG,
        priceJpy: shipments.priceJpy,
        carrier: shipments.carrier,
        trackingNumber: shipments.trackingNumber,
        shippedAt: shipments.shippedAt,
        deliveredAt: shipments.deliveredAt,
        claim: {
          status: claims.status,
          customerNote: claims.customerNote,
          closeReason: claims.closeReason,
          refundJpy: claims.refundJpy,
          openedAt: claims.openedAt,
        },
      })
      .from(shipments)
      .leftJoin(claims, eq(claims.shipmentId, shipments.id))
      .where(eq(shipments.userId, userId))
      .orderBy(asc(shipments.requestedAt)),
  ])
  const declarations = await exportDeclarations(
    db,
    sent.map((shipment) => shipment.id),
  )
  return {
    addresses: addressBook,
    notifications: notices,
    packages: stored,
    // Each shipment with its customs declaration (issue 30) as written: what customs were told.
    shipments: sent.map(({ id, ...shipment }) => ({
      ...shipment,
      customsDeclaration: declarations.get(id) ?? null,
    })),
  }
}

async function exportDeclarations(db: Database, shipmentIds: readonly string[]) {
  const byShipment = new Map<
    string,
    {
      confirmedAt: Date | null
      lines: {
        description: string | null
        quantity: number
        valueJpy: number
        netWeightG: number | null
        hsCode: string | null
        originCountry: string
      }[]
    }
  >()
  if (shipmentIds.length === 0) return byShipment
  const rows = await db
    .select({
      shipmentId: customsDeclarations.shipmentId,
      confirmedAt: customsDeclarations.confirmedAt,
      description: customsDeclarationLines.description,
      quantity: customsDeclarationLines.quantity,
      valueJpy: customsDeclarationLines.valueJpy,
      netWeightG: customsDeclarationLines.netWeightG,
      hsCode: customsDeclarationLines.hsCode,
      originCountry: customsDeclarationLines.originCountry,
    })
    .from(customsDeclarations)
    .innerJoin(customsDeclarationLines, eq(customsDeclarationLines.declarationId, customsDeclarations.id))
    .where(inArray(customsDeclarations.shipmentId, [...shipmentIds]))
    .orderBy(asc(customsDeclarationLines.position))
  for (const { shipmentId, confirmedAt, ...line } of rows) {
    const declaration = byShipment.get(shipmentId) ?? { confirmedAt, lines: [] }
    declaration.lines.push(line)
    byShipment.set(shipmentId, declaration)
  }
  return byShipment
}

async function exportPurchaseRequests(db: Database, userId: string) {
  const requests = await db
    .select({
      id: purchaseRequests.id,
      number: purchaseRequests.number,
      status: purchaseRequests.status,
      customerNote: purchaseRequests.customerNote,
      locale: purchaseRequests.locale,
      submittedAt: purchaseRequests.submittedAt,
      closedAt: purchaseRequests.closedAt,
    })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.userId, userId))
    .orderBy(asc(purchaseRequests.submittedAt))
  const ids = requests.map((request) => request.id)
  if (ids.length === 0) return []
  const [items, events] = await Promise.all([
    db
      .select({
        requestId: requestItems.requestId,
        url: requestItems.url,
        quantity: requestItems.quantity,
        notes: requestItems.notes,
        status: requestItems.status,
        weightGrams: requestItems.weightGrams,
        receivedAt: requestItems.receivedAt,
      })
      .from(requestItems)
      .where(inArray(requestItems.requestId, ids))
      .orderBy(asc(requestItems.position)),
    db
      .select({
        requestId: orderEvents.entityId,
        event: orderEvents.event,
        toStatus: orderEvents.toStatus,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.entityType, 'purchase_request'),
          inArray(orderEvents.entityId, ids),
          eq(orderEvents.visibleToCustomer, true),
        ),
      )
      .orderBy(asc(orderEvents.id)),
  ])
  return requests.map(({ id, ...request }) => ({
    ...request,
    items: items.filter((item) => item.requestId === id).map(({ requestId: _, ...item }) => item),
    history: events.filter((event) => event.requestId === id).map(({ requestId: _, ...event }) => event),
  }))
}
